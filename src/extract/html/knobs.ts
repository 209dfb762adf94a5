// TEMPORARY tuning knobs (removed before hand-off).
export const K = (name: string, def: number): number => {
  const v = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env['K_' + name];
  return v === undefined ? def : Number(v);
};
