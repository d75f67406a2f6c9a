/**
 * Where a request for https://<hostname>/... really goes: the origin standing in for that hostname, if
 * `hosts` has one (the sandbox and its local stand-ins: the seed's `hosts`, or the provider's
 * service:hostOverrides), with the path and query kept; otherwise the URL itself.
 */
export function resolveHost(url: string, hosts: Readonly<Record<string, string>>): string {
  const target = new URL(url);
  const origin = hosts[target.hostname];
  if (origin === undefined) return url;
  return `${origin.replace(/\/+$/, "")}${target.pathname}${target.search}`;
}
