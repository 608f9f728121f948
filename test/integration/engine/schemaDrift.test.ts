import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/**
 * Prisma's migrate engine cannot run on this network, so migrations are hand-written SQL. This
 * test is what catches drift: the database the migrations build must match schema.prisma in every
 * model, column, type, nullability, enum, index, unique constraint and foreign key.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const schemaWasm = require('@prisma/prisma-schema-wasm') as { get_dmmf(params: string): string };

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: 'scalar' | 'enum' | 'object';
  type: string;
  isList: boolean;
  isRequired: boolean;
  hasDefaultValue: boolean;
  nativeType?: [string, string[]] | null;
  relationFromFields?: string[];
  relationToFields?: string[];
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
}
interface DmmfIndex {
  model: string;
  type: 'id' | 'unique' | 'normal' | 'fulltext';
  fields: { name: string }[];
}
interface Dmmf {
  datamodel: {
    models: DmmfModel[];
    enums: { name: string; dbName?: string | null; values: { name: string; dbName?: string | null }[] }[];
    indexes: DmmfIndex[];
  };
}

const schemaDir = path.join(__dirname, '..', '..', '..', 'prisma', 'schema');
const dmmf: Dmmf = JSON.parse(
  schemaWasm.get_dmmf(
    JSON.stringify({
      prismaSchema: fs
        .readdirSync(schemaDir)
        .filter((file) => file.endsWith('.prisma'))
        .map((file) => [file, fs.readFileSync(path.join(schemaDir, file), 'utf8')]),
    }),
  ),
);

const scalarTypes: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Boolean: 'boolean',
  DateTime: 'timestamp without time zone',
  Json: 'jsonb',
  Float: 'double precision',
  Decimal: 'numeric',
  Bytes: 'bytea',
};
const nativeTypes: Record<string, string> = {
  VarChar: 'character varying',
  Uuid: 'uuid',
  Timestamptz: 'timestamp with time zone',
  Char: 'character',
};
const listElementTypes: Record<string, string> = {
  String: '_text',
  Int: '_int4',
  BigInt: '_int8',
  Boolean: '_bool',
  DateTime: '_timestamp',
  Json: '_jsonb',
};

/** data_type as information_schema reports it, or udt_name for enums and arrays. */
function expectedColumnType(field: DmmfField): string {
  if (field.kind === 'enum') {
    const enumDef = dmmf.datamodel.enums.find((e) => e.name === field.type)!;
    const name = enumDef.dbName ?? enumDef.name;
    return field.isList ? `_${name}` : name;
  }
  if (field.isList) return listElementTypes[field.type] ?? `unknown list:${field.type}`;
  const native = field.nativeType ? nativeTypes[field.nativeType[0]] : undefined;
  return native ?? scalarTypes[field.type] ?? `unknown:${field.type}`;
}

let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
});
afterAll(async () => {
  await client.end();
});

const tableOf = (model: DmmfModel) => model.dbName ?? model.name;
const columnOf = (model: DmmfModel, fieldName: string) => {
  const field = model.fields.find((f) => f.name === fieldName)!;
  return field.dbName ?? field.name;
};

async function columns(table: string) {
  const result = await client.query<{
    column_name: string;
    data_type: string;
    udt_name: string;
    is_nullable: string;
    column_default: string | null;
  }>(
    `SELECT column_name, data_type, udt_name, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1`,
    [table],
  );
  return new Map(result.rows.map((row) => [row.column_name, row]));
}

async function indexes(table: string) {
  const result = await client.query<{ unique: boolean; primary: boolean; columns: string[] }>(
    `SELECT ix.indisunique AS unique, ix.indisprimary AS primary,
            array_agg(a.attname ORDER BY k.ord)::text[] AS columns
       FROM pg_index ix
       JOIN pg_class t ON t.oid = ix.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
       CROSS JOIN LATERAL unnest(ix.indkey) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
      WHERE n.nspname = 'public' AND t.relname = $1
      GROUP BY ix.indexrelid, ix.indisunique, ix.indisprimary`,
    [table],
  );
  return result.rows;
}

describe('migrated database matches schema.prisma', () => {
  it('has exactly the tables of the models', async () => {
    const result = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'`,
    );
    expect(result.rows.map((row) => row.table_name).sort()).toEqual(dmmf.datamodel.models.map(tableOf).sort());
  });

  it('has every enum with exactly its values', async () => {
    for (const enumDef of dmmf.datamodel.enums) {
      const result = await client.query<{ enumlabel: string }>(
        `SELECT e.enumlabel FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid WHERE t.typname = $1 ORDER BY e.enumsortorder`,
        [enumDef.dbName ?? enumDef.name],
      );
      expect({ enum: enumDef.name, values: result.rows.map((row) => row.enumlabel) }).toEqual({
        enum: enumDef.name,
        values: enumDef.values.map((value) => value.dbName ?? value.name),
      });
    }
  });

  for (const model of dmmf.datamodel.models) {
    it(`${model.name}: columns, types, nullability and defaults`, async () => {
      const actual = await columns(tableOf(model));
      const scalarFields = model.fields.filter((field) => field.kind !== 'object');
      expect([...actual.keys()].sort()).toEqual(scalarFields.map((field) => field.dbName ?? field.name).sort());
      for (const field of scalarFields) {
        const column = actual.get(field.dbName ?? field.name)!;
        const described = `${model.name}.${field.name}`;
        const actualType =
          column.data_type === 'USER-DEFINED' || column.data_type === 'ARRAY' ? column.udt_name : column.data_type;
        expect({ field: described, type: actualType }).toEqual({ field: described, type: expectedColumnType(field) });
        // Prisma leaves scalar-list columns nullable; everything else follows `?`.
        const expectNullable = !field.isRequired || field.isList;
        expect({ field: described, nullable: column.is_nullable === 'YES' }).toEqual({
          field: described,
          nullable: expectNullable,
        });
        // Every default in this schema is a database default (now(), literals), none Prisma-side.
        expect({ field: described, hasDefault: column.column_default !== null }).toEqual({
          field: described,
          hasDefault: field.hasDefaultValue,
        });
      }
    });

    it(`${model.name}: primary key, unique and plain indexes`, async () => {
      const actual = await indexes(tableOf(model));
      const expected = dmmf.datamodel.indexes.filter(
        (index) => index.model === model.name && index.type !== 'fulltext',
      );
      const describe = (unique: boolean, primary: boolean, cols: string[]) =>
        `${primary ? 'pk' : unique ? 'unique' : 'index'}(${cols.join(',')})`;
      const actualSet = actual.map((index) => describe(index.unique, index.primary, index.columns)).sort();
      const expectedSet = expected
        .map((index) =>
          describe(
            index.type !== 'normal',
            index.type === 'id',
            index.fields.map((f) => columnOf(model, f.name)),
          ),
        )
        .sort();
      expect(actualSet).toEqual(expectedSet);
    });

    it(`${model.name}: foreign keys`, async () => {
      const result = await client.query<{ columns: string[]; target: string; target_columns: string[] }>(
        `SELECT array_agg(a.attname ORDER BY k.ord)::text[] AS columns, ft.relname AS target,
                array_agg(fa.attname ORDER BY k.ord)::text[] AS target_columns
           FROM pg_constraint c
           JOIN pg_class t ON t.oid = c.conrelid
           JOIN pg_class ft ON ft.oid = c.confrelid
           CROSS JOIN LATERAL unnest(c.conkey, c.confkey) WITH ORDINALITY AS k(attnum, fattnum, ord)
           JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
           JOIN pg_attribute fa ON fa.attrelid = ft.oid AND fa.attnum = k.fattnum
          WHERE c.contype = 'f' AND t.relname = $1
          GROUP BY c.oid, ft.relname`,
        [tableOf(model)],
      );
      const actualFks = result.rows
        .map((row) => `${row.columns.join(',')}->${row.target}(${row.target_columns.join(',')})`)
        .sort();
      const expectedFks = model.fields
        .filter((field) => field.kind === 'object' && field.relationFromFields && field.relationFromFields.length > 0)
        .map((field) => {
          const target = dmmf.datamodel.models.find((m) => m.name === field.type)!;
          return `${field.relationFromFields!.map((f) => columnOf(model, f)).join(',')}->${tableOf(target)}(${field.relationToFields!.map((f) => columnOf(target, f)).join(',')})`;
        })
        .sort();
      expect(actualFks).toEqual(expectedFks);
    });
  }
});
