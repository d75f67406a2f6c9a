/**
 * A Markdown table with its columns aligned, as the repository's formatter (Biome) writes one, so that a
 * generated table and a formatted page agree and `biome check` leaves the page as it was generated.
 */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows];
  // Biome writes a separator of at least three dashes, so no column is narrower than 3.
  const widths = header.map((_, column) => Math.max(3, ...all.map((row) => row[column]!.length)));
  const line = (row: readonly string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}
