import { createRequire } from 'node:module';
import * as proto from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root';
import type { History } from '@temporalio/common/lib/proto-utils';

/**
 * History <-> proto JSON, the format of `temporal workflow show --output json`.
 *
 * Why not `historyToJSON`/`historyFromJSON` from @temporalio/common: in this install
 * @temporalio/common and @temporalio/proto each carry their own copy of protobufjs 8, and the
 * SDK's helpers pass a type from one copy to the other's `protojson`, which refuses it
 * ("type must be a Type"). Here both come from @temporalio/proto's copy.
 */
const protoRequire = createRequire(require.resolve('@temporalio/proto'));
const protojson = protoRequire('protobufjs/ext/protojson') as {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options?: { ignoreUnknownFields?: boolean }): unknown;
};
const historyType = (patchProtobufRoot(proto) as any).lookupType('temporal.api.history.v1.History');

export function historyToJson(history: History): string {
  return JSON.stringify(
    protojson.toJson(historyType, proto.temporal.api.history.v1.History.fromObject(history)),
    null,
    1,
  );
}

export function historyFromJson(json: unknown): History {
  const history = protojson.fromJson(historyType, json, { ignoreUnknownFields: true });
  if (!history) throw new TypeError('not a workflow history');
  return history as History;
}
