import { inspect } from "node:util";

/** Every way an error is commonly printed or shipped: util.inspect, JSON, String and its stack. */
export const printed = (error: unknown) =>
  [
    inspect(error, { depth: 20, showHidden: true }),
    JSON.stringify(error),
    String(error),
    (error as Error).stack,
  ].join("\n");
