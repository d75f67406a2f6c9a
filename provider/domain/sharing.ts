/**
 * Which registrations of this process started on a hostname the organization had already registered. The
 * verification that finishes such a registration finds the domain registered, and must record that this
 * stack did not register it (status `adopted`): its destroy then leaves the domain to whoever did.
 */
import { contextKey, processContext } from "../context/process";

/** The verifiers of registrations started while their hostname was already registered. */
const REGISTERED_AT_START = contextKey(
  "registrations started on a registered hostname",
  () => new Set<string>(),
);

/** Notes that the registration with `verifier` started while its hostname was already registered. */
export function noteRegisteredAtStart(verifier: string): void {
  processContext().get(REGISTERED_AT_START).add(verifier);
}

/** Whether the registration with `verifier` started, in this process, on an already registered hostname. */
export function wasRegisteredAtStart(verifier: string | undefined): boolean {
  return verifier !== undefined && processContext().get(REGISTERED_AT_START).has(verifier);
}

/** The topic under which a process says once that `domainName` is shared (notices.ts). */
export const sharedTopic = (domainName: string): string => `shared ${domainName}`;
