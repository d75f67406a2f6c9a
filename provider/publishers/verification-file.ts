import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, normalize, resolve } from "node:path";
import { z } from "zod";
import { checkInputs, type FieldAdvice } from "../lifecycle/check";
import {
  changedInputs,
  exact,
  fallbacksOf,
  hashedSecret,
  type InputKinds,
} from "../lifecycle/input-comparison";
import type { ResourceProps } from "../lifecycle/methods";
import { type Refreshed, refreshAnswer } from "../lifecycle/refresh";
import { hashSecret } from "../lifecycle/secret-hash";
import type { Settings } from "../settings/value";

/** What a VerificationFile accepts. */
export const FileInputs = z.object({
  directory: z.string().min(1, "must not be empty"),
  key: z
    .string()
    .min(1, "must not be empty")
    .refine(
      (k) => !isAbsolute(k) && !normalize(k).startsWith(".."),
      "must be a relative path inside directory",
    ),
  content: z.string(),
});

/** How a VerificationFile's check failures describe its inputs: the content (a register token) is never quoted. */
const FILE_FIELD_ADVICE: FieldAdvice = {
  quoted: ["directory", "key"],
  nextSteps: {
    directory: "give the folder that https://<domainName>/ is served from",
    key: "pass the DomainRegistration's key output, or use directoryPublisher, which does",
    content: "pass the DomainRegistration's registerToken output, or use directoryPublisher, which does",
  },
};

/** What a VerificationFile keeps in state. */
export const FileOutputs = z.object({
  directory: z.string(),
  key: z.string(),
  path: z.string(),
  /** The content is a secret (a register token); state keeps a salted hash. */
  contentHash: z.string(),
});
type FileOutputs = z.output<typeof FileOutputs>;

async function write(inputs: z.output<typeof FileInputs>): Promise<FileOutputs> {
  const path = join(resolve(inputs.directory), inputs.key);
  await mkdir(dirname(path), { recursive: true });
  // Write aside, then rename, so a poller never reads half a token.
  const partial = `${path}.partial`;
  await writeFile(partial, inputs.content, { mode: 0o644 });
  await rename(partial, path);
  return { directory: inputs.directory, key: inputs.key, path, contentHash: hashSecret(inputs.content) };
}

export async function check(_settings: Settings, _olds: ResourceProps, news: ResourceProps) {
  return checkInputs(FileInputs, news, FILE_FIELD_ADVICE);
}

/** A VerificationFile's inputs by kind: another folder or key is another file; new content rewrites it. */
const INPUTS: InputKinds = { directory: exact, key: exact, content: hashedSecret("contentHash") };

export async function diff(settings: Settings, _id: string, olds: ResourceProps, news: ResourceProps) {
  const changed = changedInputs(INPUTS, FileOutputs.parse(olds), news, fallbacksOf(settings));
  return {
    changes: changed.length > 0,
    replaces: changed.filter((key) => key !== "content"),
    deleteBeforeReplace: false,
  };
}

export async function create(_settings: Settings, props: ResourceProps) {
  const outs = await write(FileInputs.parse(props));
  return { id: outs.path, outs };
}

/** Gone when the file is gone; its content is not compared, since state holds only its hash. */
export async function read(
  _settings: Settings,
  id: string,
  props: ResourceProps,
): Promise<Refreshed | Record<string, never>> {
  const old = FileOutputs.parse(props);
  try {
    await readFile(old.path);
  } catch {
    return {};
  }
  return refreshAnswer(id, props, old, () => ({ directory: old.directory, key: old.key }));
}

export async function update(_settings: Settings, _id: string, _olds: ResourceProps, news: ResourceProps) {
  return { outs: await write(FileInputs.parse(news)) };
}

export async function remove(_settings: Settings, _id: string, props: ResourceProps): Promise<void> {
  await rm(FileOutputs.parse(props).path, { force: true });
}
