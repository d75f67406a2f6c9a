/**
 * Where the sandbox really connects when it calls https://<hostname>/...: the seed's `hosts` entry for
 * that hostname if there is one (a local origin in tests and the quickstart), else the URL itself.
 */
export function outboundUrl(target: string, hosts: Readonly<Record<string, string>>): string {
  const url = new URL(target);
  const origin = hosts[url.hostname];
  if (origin === undefined) return target;
  const base = origin.replace(/\/+$/, "");
  return `${base}${url.pathname}${url.search}`;
}
