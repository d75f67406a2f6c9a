/**
 * The sandbox's stand-in taxonomy, in both display languages: the brand, material and category options
 * that the authentication config and supported-brands routes answer, and the display strings of the
 * ids a session item carries. The service's own lists are not shown; these are made up.
 */

/** A display string in every language the service speaks. */
export interface Localized {
  readonly en: string;
  readonly ja: string;
}

interface Option {
  readonly id: string;
  readonly display: Localized;
}

/** Brands by capture-form category. */
export const CATEGORIES: readonly (Option & { readonly brands: readonly Option[] })[] = [
  {
    id: "luxury",
    display: { en: "Luxury", ja: "ラグジュアリー" },
    brands: [
      { id: "sandbox-brand", display: { en: "Sandbox Brand", ja: "サンドボックスブランド" } },
      { id: "example-maison", display: { en: "Example Maison", ja: "エグザンプル・メゾン" } },
    ],
  },
  {
    id: "sneakers",
    display: { en: "Sneakers", ja: "スニーカー" },
    brands: [{ id: "sample-runner", display: { en: "Sample Runner", ja: "サンプルランナー" } }],
  },
];

/** Materials an authentication can name. */
export const MATERIALS: readonly Option[] = [
  { id: "leather", display: { en: "Leather", ja: "レザー" } },
  { id: "canvas", display: { en: "Canvas", ja: "キャンバス" } },
  { id: "metal", display: { en: "Metal", ja: "メタル" } },
];

/** Every brand of every category. */
export const BRANDS: readonly Option[] = CATEGORIES.flatMap((c) => c.brands);

const RESULTS: Record<string, Localized> = {
  authentic: { en: "Authentic", ja: "正規品" },
  unidentified: { en: "Unidentified", ja: "判定不能" },
  registered: { en: "Registered", ja: "登録済み" },
  match: { en: "Match", ja: "一致" },
};

const byId = (options: readonly Option[]) => Object.fromEntries(options.map((o) => [o.id, o.display]));

/** Display strings of known ids, by the dotted path of the `{id, display}` object in an item. */
export const ID_DISPLAYS: Readonly<Record<string, Readonly<Record<string, Localized>>>> = {
  "status.result": RESULTS,
  "properties.brand": byId(BRANDS),
  "properties.material": byId(MATERIALS),
};
