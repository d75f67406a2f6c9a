/**
 * The host name of an HTTP Host header or a listen address, normalized the way a browser reads it
 * (`0x7f.1` is 127.0.0.1, IPv6 in brackets); undefined when it is not a host at all.
 */
export function hostnameOf(host: string): string | undefined {
  // A bare IPv6 address (a listen address such as ::1) has no brackets; a Host header always has them.
  const bracketed =
    host.includes(":") && !host.startsWith("[") && host.indexOf(":") !== host.lastIndexOf(":");
  try {
    return new URL(`http://${bracketed ? `[${host}]` : host}`).hostname;
  } catch {
    return undefined;
  }
}

/** Whether a normalized host name can only reach this machine: localhost, 127.0.0.0/8 or [::1]. */
export function isLoopback(hostname: string | undefined): boolean {
  if (hostname === undefined) return false;
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    /^127\.\d+\.\d+\.\d+$/.test(hostname) ||
    hostname === "[::1]"
  );
}
