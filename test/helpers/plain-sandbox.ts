import { afterAll, beforeAll } from "vitest";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../sandbox/index";
import { HOOKS_TOKEN, testSeed } from "./fixtures";
import { plainApi } from "./http";

/** A sandbox on the test seed (no webhook host answers) and a plain caller with the webhooks token. */
export interface PlainSandbox {
  readonly sandbox: Sandbox;
  readonly api: ReturnType<typeof plainApi>;
}

/** A PlainSandbox started before the file's tests and closed after them; read its members inside tests. */
export function usePlainSandbox(options: SandboxOptions = {}): PlainSandbox {
  const holder = {} as { sandbox: Sandbox; api: ReturnType<typeof plainApi> };
  beforeAll(async () => {
    holder.sandbox = await startSandbox({ seed: testSeed("http://127.0.0.1:9"), ...options });
    holder.api = plainApi(holder.sandbox.url, { token: HOOKS_TOKEN });
  });
  afterAll(() => holder.sandbox.close());
  return holder;
}
