import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "../contract/languages";
import { HttpError } from "./http-errors";

/**
 * The language of an answer's display strings, from the request's Accept-Language (RFC 9110 12.5.4):
 * the most preferred of en and ja, matched on the primary subtag in any case (`ja-JP` is ja). No header,
 * an empty one or `*` (which fetch sends by default) means en. A header that names neither en nor ja
 * is an incorrect header: 400.
 */
export function negotiateLanguage(header: string | undefined): Language {
  if (header === undefined || header.trim() === "") return DEFAULT_LANGUAGE;
  let best: { language: Language; q: number } | undefined;
  for (const part of header.split(",")) {
    const [range = "", ...params] = part.trim().split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith("q="));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0) continue;
    const primary = range.trim().toLowerCase().split("-")[0];
    const language =
      primary === "*" ? DEFAULT_LANGUAGE : LANGUAGES.find((candidate) => candidate === primary);
    if (language && (best === undefined || q > best.q)) best = { language, q };
  }
  if (best) return best.language;
  throw new HttpError(
    400,
    "invalid_headers",
    `Accept-Language ${JSON.stringify(header)} names no language the service answers in; send en or ja, or leave it out for en`,
  );
}
