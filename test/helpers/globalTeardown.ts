export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __stopTestServices?: () => Promise<void> }).__stopTestServices?.();
}
