/**
 * Advice in the program's language: how a property and a resource option are spelled in each SDK, and
 * how the provider learns the language from the project's Pulumi.yaml.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ProcessContext, setProcessContext } from "../../../provider/context/process";
import {
  findProgramLanguage,
  languageNameOfProject,
  optionSetting,
  programLanguage,
  propertyName,
  setProgramLanguage,
  spellOption,
  spellProperty,
} from "../../../provider/context/program-language";

afterEach(() => {
  setProcessContext(new ProcessContext());
});

describe("propertyName", () => {
  it.each([
    ["nodejs", "secretKey", "secretKey"],
    ["python", "secretKey", "secret_key"],
    ["python", "adoptWebhookUuid", "adopt_webhook_uuid"],
    ["python", "connection.baseUrl", "connection.base_url"],
    ["python", "filters[0].key", "filters[0].key"],
    ["go", "secretKey", "SecretKey"],
    ["go", "connection.baseUrl", "Connection.BaseUrl"],
    ["yaml", "publishDirectory", "publishDirectory"],
    ["dotnet", "apiVersion", "ApiVersion"],
  ] as const)("in %s spells %s as %s", (language, path, spelled) => {
    expect(propertyName(path, language)).toBe(spelled);
  });

  it("spells every Webhook input as the generated Python SDK names its arguments", () => {
    // sdk/python/service_pulumi/webhook.py, WebhookArgs.__init__
    const inputs = ["endpoint", "secretKey", "filters", "channel", "apiVersion", "acceptLanguage"];
    expect(inputs.map((name) => propertyName(name, "python"))).toEqual([
      "endpoint",
      "secret_key",
      "filters",
      "channel",
      "api_version",
      "accept_language",
    ]);
  });
});

describe("spellProperty", () => {
  it("names the program's spelling in backticks", () => {
    expect(spellProperty("secretKey", "python")).toBe("`secret_key`");
    expect(spellProperty("secretKey", "nodejs")).toBe("`secretKey`");
  });

  it("names every spelling when the language is unknown", () => {
    expect(spellProperty("secretKey", undefined)).toBe(
      "`secretKey` (`secret_key` in Python, `SecretKey` in Go and C#)",
    );
    expect(spellProperty("endpoint", undefined)).toBe("`endpoint` (`Endpoint` in Go and C#)");
  });

  it("reads the process's language when none is given", () => {
    expect(spellProperty("secretKey")).toMatch(/in Python/);
    setProgramLanguage("python");
    expect(programLanguage()).toBe("python");
    expect(spellProperty("secretKey")).toBe("`secret_key`");
  });
});

describe("spellOption", () => {
  it.each([
    ["nodejs", "`deleteBeforeReplace`"],
    ["python", "`delete_before_replace`"],
    ["go", "`pulumi.DeleteBeforeReplace`"],
    ["yaml", "`deleteBeforeReplace` under `options:`"],
    ["dotnet", "`DeleteBeforeReplace`"],
  ] as const)("in %s is %s", (language, spelled) => {
    expect(spellOption("deleteBeforeReplace", language)).toBe(spelled);
  });

  it("names every spelling when the language is unknown", () => {
    const text = spellOption("dependsOn", undefined);
    for (const spelled of [
      "`dependsOn`",
      "`depends_on` in Python",
      "`pulumi.DependsOn` in Go",
      "under `options:` in YAML",
    ]) {
      expect(text).toContain(spelled);
    }
  });
});

describe("optionSetting", () => {
  it.each([
    ["nodejs", "the resource option `deleteBeforeReplace: true`"],
    ["python", "`opts=pulumi.ResourceOptions(delete_before_replace=True)`"],
    ["go", "the resource option `pulumi.DeleteBeforeReplace(true)`"],
    ["yaml", "`deleteBeforeReplace: true` under `options:`"],
    ["dotnet", "`new CustomResourceOptions { DeleteBeforeReplace = true }`"],
  ] as const)("sets a flag in %s as %s", (language, phrase) => {
    expect(optionSetting("deleteBeforeReplace", true, language)).toBe(phrase);
  });

  it.each([
    ["nodejs", "the resource option `dependsOn: [domain]`"],
    ["python", "`opts=pulumi.ResourceOptions(depends_on=[domain])`"],
    ["go", "the resource option `pulumi.DependsOn([]pulumi.Resource{domain})`"],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: YAML's own interpolation syntax, not a template
    ["yaml", "`dependsOn: [${domain}]` under `options:`"],
    ["dotnet", "`new CustomResourceOptions { DependsOn = { domain } }`"],
  ] as const)("lists resources in %s as %s", (language, phrase) => {
    expect(optionSetting("dependsOn", ["domain"], language)).toBe(phrase);
  });

  it("names every spelling when the language is unknown", () => {
    const text = optionSetting("deleteBeforeReplace", true, undefined);
    expect(text).toMatch(/^the resource option `deleteBeforeReplace: true` \(/);
    expect(text).toContain("`opts=pulumi.ResourceOptions(delete_before_replace=True)` in Python");
    expect(text).toContain("`pulumi.DeleteBeforeReplace(true)` in Go");
    expect(text).toContain("`deleteBeforeReplace: true` under `options:` in YAML");
  });
});

describe("the program's language from Pulumi.yaml", () => {
  it.each([
    ["runtime: python\n", "python"],
    ["name: x\nruntime: 'go' # compiled\n", "go"],
    ["runtime:\n  name: python\n  options:\n    toolchain: pip\n", "python"],
    ["runtime:\n  options:\n    typescript: false\n  name: nodejs\n", "nodejs"],
    ['runtime: { name: "yaml", options: {} }\n', "yaml"],
    ["name: x\n", undefined],
    ["runtime:\nname: x\n", undefined],
  ])("reads %j as %s", (text, runtime) => {
    expect(languageNameOfProject(text)).toBe(runtime);
  });

  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const project = (text: string | undefined) => {
    const dir = mkdtempSync(join(tmpdir(), "program-language-"));
    dirs.push(dir);
    if (text !== undefined) writeFileSync(join(dir, "Pulumi.yaml"), text);
    return dir;
  };

  it("finds the project from a folder under it (the engine runs plugins in the folder of `main`)", () => {
    const root = project("name: p\nruntime:\n  name: python\n");
    const main = join(root, "src", "app");
    mkdirSync(main, { recursive: true });
    expect(findProgramLanguage(main)).toBe("python");
  });

  it("knows no language for a runtime without an SDK here, or without a project", () => {
    expect(findProgramLanguage(project("runtime: java\n"))).toBeUndefined();
    expect(findProgramLanguage(project(undefined))).toBeUndefined();
  });
});
