/**
 * What a Domain says to the person running Pulumi when nothing failed: that it shares a hostname another
 * stack registered, or that a destroy leaves such a hostname registered. One line each, on the provider's
 * stderr, which the engine shows with the command's output (the dynamic-provider host has no other way to
 * speak outside a failure). Secrets the process has seen are hidden from it.
 */
import { contextKey, processContext, redact } from "../context/process";

/** The lines already said in this process, so that a check and a create of one run say a thing once. */
const TOLD = contextKey("domain notices told", () => new Set<string>());

/**
 * Says `line`, unless this process already said something under `topic` (by default, the line itself).
 * Answers whether it said it.
 */
export function tell(line: string, topic: string = line): boolean {
  const told = processContext().get(TOLD);
  if (told.has(topic)) return false;
  told.add(topic);
  process.stderr.write(`${redact(line)}\n`);
  return true;
}

/** Marks `topic` as said, when another channel (the plugin's warning on a resource) said it. */
export function markTold(topic: string): void {
  processContext().get(TOLD).add(topic);
}
