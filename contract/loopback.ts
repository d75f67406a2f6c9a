import { isIPv4 } from "node:net";

/**
 * The host name of an HTTP Host header or a listen address, normalized the way a browser reads it
 * (`0x7f.1` is 127.0.0.1, IPv6 in brackets); undefined when it is not a host at all.
 */
export function hostnameOf(host: string): string | undefined {
  // A bare IPv6 address (a listen address such as ::1) has no brackets, and two colons at least; a Host
  // header always has the brackets, and a host with a port one colon.
  const bracketed = !host.startsWith("[") && host.indexOf(":") !== host.lastIndexOf(":");
  return URL.parse(`http://${bracketed ? `[${host}]` : host}`)?.hostname;
}

/** Whether a normalized host name can only reach this machine: localhost, 127.0.0.0/8 or [::1]. */
export function isLoopback(hostname: string | undefined): boolean {
  if (hostname === undefined) return false;
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    // A normalized IPv4 address is in dotted decimal, whatever spelling the URL gave.
    (hostname.startsWith("127.") && isIPv4(hostname)) ||
    hostname === "[::1]"
  );
}
