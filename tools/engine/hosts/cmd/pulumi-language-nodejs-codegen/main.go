// pulumi-language-nodejs-codegen is the code generation of this repository's Node.js language host
// (tools/engine/pulumi-language-nodejs.cjs), which has none of its own: the host hands it one request
// and takes back the response, both as the language protocol's bytes, and this answers it with Pulumi's
// own TypeScript generator (pkg/codegen/nodejs) of the release the engine is built from.
//
//	pulumi-language-nodejs-codegen generate-program  < GenerateProgramRequest  > GenerateProgramResponse
//	pulumi-language-nodejs-codegen generate-package  < GeneratePackageRequest  > GeneratePackageResponse
//
// One process per request: `pulumi import --out` and `pulumi package gen-sdk` call it once, and the host
// needs no gRPC client or server of its own for it. A failure is one line on stderr and exit code 1,
// which the host answers the engine with.
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/proto"

	"github.com/service-pulumi/service-pulumi/engine/hosts/langhost"
)

const name = "pulumi-language-nodejs"

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
}

func run(args []string, in io.Reader, out io.Writer) error {
	if len(args) != 1 {
		return fmt.Errorf("give one request kind, generate-program or generate-package")
	}
	body, err := io.ReadAll(in)
	if err != nil {
		return fmt.Errorf("could not read the request: %w", err)
	}
	ctx := context.Background()
	var response proto.Message
	switch args[0] {
	case "generate-program":
		req := &pulumirpc.GenerateProgramRequest{}
		if err := proto.Unmarshal(body, req); err != nil {
			return fmt.Errorf("the request is not a GenerateProgramRequest: %w", err)
		}
		response, err = langhost.GenerateProgram(ctx, req, nodejs.GenerateProgram)
	case "generate-package":
		req := &pulumirpc.GeneratePackageRequest{}
		if err := proto.Unmarshal(body, req); err != nil {
			return fmt.Errorf("the request is not a GeneratePackageRequest: %w", err)
		}
		response, err = langhost.GeneratePackage(ctx, req, func(
			pkg *schema.Package, req *pulumirpc.GeneratePackageRequest, loader schema.ReferenceLoader,
		) (map[string][]byte, error) {
			return nodejs.GeneratePackage(name, pkg, req.GetExtraFiles(), req.GetLocalDependencies(), req.GetLocal(), loader)
		})
	default:
		return fmt.Errorf("%q is not a request kind: give generate-program or generate-package", args[0])
	}
	if err != nil {
		return err
	}
	bytes, err := proto.Marshal(response)
	if err != nil {
		return err
	}
	_, err = out.Write(bytes)
	return err
}
