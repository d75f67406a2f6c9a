/**
 * The TSDoc of this package's declarations, read with the TypeScript compiler API when the schema is
 * generated: the text a TypeScript user reads in the editor is the text every other language's SDK gets,
 * written once, in the source.
 */
import { join } from "node:path";
import ts from "typescript";

/** A documented member: its text and the type it was declared with, to find the docs of a nested object. */
interface MemberDocs {
  /** The member's TSDoc, without tags. */
  readonly description: string;
  /** The member's declared type, if it has one. */
  readonly typeNode: ts.TypeNode | undefined;
}

/** A documented interface, class, object type or object literal, and its members. */
export interface Docs {
  /** Its name, for a named declaration; undefined for an inline object type. */
  readonly name: string | undefined;
  /** Its TSDoc, without tags. */
  readonly description: string;
  /** Its members by name, inherited ones included. */
  readonly members: ReadonlyMap<string, MemberDocs>;
}

/** The TSDoc of declarations in this package's sources. */
export class SourceDocs {
  private readonly program: ts.Program;
  private readonly checker: ts.TypeChecker;

  /** Reads `files` (paths relative to `root`) with the compiler options of the package's tsconfig. */
  constructor(
    private readonly root: string,
    files: readonly string[],
  ) {
    const config = ts.readConfigFile(join(root, "tsconfig.base.json"), ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
    this.program = ts.createProgram(
      files.map((file) => join(root, file)),
      { ...options, noEmit: true },
    );
    this.checker = this.program.getTypeChecker();
  }

  private textOf(node: ts.Node & { name?: ts.Node | undefined }): string {
    const symbol = node.name ? this.checker.getSymbolAtLocation(node.name) : undefined;
    return ts.displayPartsToString(symbol?.getDocumentationComment(this.checker)).trim();
  }

  private topLevel(file: string, name: string): ts.Node {
    const source = this.program.getSourceFile(join(this.root, file));
    if (!source) throw new Error(`${file} is not among the sources the schema is documented from.`);
    let found: ts.Node | undefined;
    source.forEachChild((node) => {
      if (
        (ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node) || ts.isTypeAliasDeclaration(node)) &&
        node.name?.text === name
      ) {
        found = node;
      }
      if (ts.isVariableStatement(node)) {
        for (const declaration of node.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name) && declaration.name.text === name) found = declaration;
        }
      }
    });
    if (!found)
      throw new Error(`${file} declares no ${name}: the schema reads its documentation from there.`);
    return found;
  }

  /** The docs of the interface, class, type alias or object-literal constant `name` declared in `file`. */
  declaration(file: string, name: string): Docs {
    return this.docsOf(this.topLevel(file, name))!;
  }

  /** The docs of a declaration node, or undefined if it is not an object-like declaration. */
  private docsOf(node: ts.Node): Docs | undefined {
    if (ts.isTypeAliasDeclaration(node)) {
      const inner = this.objectIn(node.type);
      return inner && { ...inner, name: node.name.text, description: this.textOf(node) || inner.description };
    }
    if (ts.isVariableDeclaration(node) && node.initializer) {
      let init: ts.Expression = node.initializer;
      while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init)) init = init.expression;
      if (!ts.isObjectLiteralExpression(init)) return undefined;
      const members = new Map<string, MemberDocs>();
      for (const property of init.properties) {
        if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.name)) {
          members.set(property.name.text, { description: this.textOf(property), typeNode: undefined });
        }
      }
      return { name: (node.name as ts.Identifier).text, description: this.textOf(node), members };
    }
    if (ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node)) {
      const type = this.checker.getTypeAtLocation(node);
      const members = new Map<string, MemberDocs>();
      for (const symbol of this.checker.getPropertiesOfType(type)) {
        const declaration = symbol.declarations?.[0];
        const typeNode =
          declaration && (ts.isPropertySignature(declaration) || ts.isPropertyDeclaration(declaration))
            ? declaration.type
            : undefined;
        members.set(symbol.name, {
          description: ts.displayPartsToString(symbol.getDocumentationComment(this.checker)).trim(),
          typeNode,
        });
      }
      return { name: node.name?.text, description: this.textOf(node), members };
    }
    if (ts.isTypeLiteralNode(node)) {
      const members = new Map<string, MemberDocs>();
      for (const member of node.members) {
        if (ts.isPropertySignature(member) && ts.isIdentifier(member.name)) {
          members.set(member.name.text, { description: this.textOf(member), typeNode: member.type });
        }
      }
      return { name: undefined, description: "", members };
    }
    return undefined;
  }

  /**
   * The docs of the object type a member was declared with, looking through `pulumi.Input<...>`,
   * `pulumi.Output<...>`, arrays and unions: an inline object type, or an interface or type alias of
   * this package. Undefined when the member's type holds none.
   */
  objectIn(typeNode: ts.TypeNode | undefined): Docs | undefined {
    if (!typeNode) return undefined;
    if (ts.isTypeLiteralNode(typeNode)) return this.docsOf(typeNode);
    if (ts.isTypeReferenceNode(typeNode)) {
      const own = this.localDeclaration(typeNode.typeName);
      if (own) return this.docsOf(own);
    }
    let found: Docs | undefined;
    typeNode.forEachChild((child) => {
      if (!found && ts.isTypeNode(child)) found = this.objectIn(child);
    });
    return found;
  }

  /** The declaration a type name refers to, if it is this package's own (not a library's). */
  private localDeclaration(name: ts.EntityName): ts.Node | undefined {
    let symbol = this.checker.getSymbolAtLocation(name);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const declaration = symbol?.declarations?.[0];
    if (!declaration || declaration.getSourceFile().fileName.includes("node_modules")) return undefined;
    return declaration;
  }
}
