import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { projectRoot } from '../../src/config';

const layers = ['src', 'simulators', 'activities', 'workflows', 'temporal'];

/** Every production .ts file (src/generated/ aside) and its relative imports, split into value and type-only. */
function importGraph(): Map<string, { file: string; typeOnly: boolean }[]> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (full !== path.join(projectRoot, 'src', 'generated')) walk(full);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(full);
    }
  };
  for (const layer of layers) walk(path.join(projectRoot, layer));
  const resolve = (from: string, specifier: string) => {
    const base = path.resolve(path.dirname(from), specifier);
    return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(candidate));
  };
  const graph = new Map<string, { file: string; typeOnly: boolean }[]>();
  for (const file of files) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    const edges: { file: string; typeOnly: boolean }[] = [];
    for (const statement of source.statements) {
      let specifier: string | undefined;
      let typeOnly = false;
      if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
        specifier = statement.moduleSpecifier.text;
        const clause = statement.importClause;
        const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings : null;
        typeOnly =
          !!clause &&
          (clause.isTypeOnly ||
            (!clause.name && !!named && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)));
      } else if (
        ts.isExportDeclaration(statement) &&
        statement.moduleSpecifier &&
        ts.isStringLiteral(statement.moduleSpecifier)
      ) {
        specifier = statement.moduleSpecifier.text;
        const named =
          statement.exportClause && ts.isNamedExports(statement.exportClause) ? statement.exportClause : null;
        typeOnly =
          statement.isTypeOnly || (!!named && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly));
      }
      const target = specifier?.startsWith('.') ? resolve(file, specifier) : undefined;
      if (target) edges.push({ file: target, typeOnly });
    }
    graph.set(file, edges);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan), as paths relative to the repository. */
function cycles(graph: Map<string, { file: string; typeOnly: boolean }[]>, withTypes: boolean): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const edge of graph.get(node) ?? []) {
      if (edge.typeOnly && !withTypes) continue;
      if (!index.has(edge.file)) {
        visit(edge.file);
        low.set(node, Math.min(low.get(node)!, low.get(edge.file)!));
      } else if (onStack.has(edge.file)) low.set(node, Math.min(low.get(node)!, index.get(edge.file)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(path.relative(projectRoot, member));
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('import cycles in production code', () => {
  const graph = importGraph();

  it('reads the import graph', () => {
    expect(graph.size).toBeGreaterThan(400);
    expect(graph.get(path.join(projectRoot, 'activities', 'index.ts'))?.length).toBeGreaterThan(5);
  });

  it('has no cycle of value imports', () => {
    expect(cycles(graph, false)).toEqual([]);
  });

  it('has no cycle, type imports included, that runs through more than one of src, simulators, activities, workflows, temporal', () => {
    const acrossLayers = cycles(graph, true).filter(
      (component) => new Set(component.map((file) => file.split(path.sep)[0])).size > 1,
    );
    expect(acrossLayers).toEqual([]);
  });
});
