package langhost

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// Generator turns a bound schema into an SDK's files, keyed by their path inside the SDK's folder.
type Generator func(pkg *schema.Package, req *pulumirpc.GeneratePackageRequest, loader schema.ReferenceLoader) (
	map[string][]byte, error)

// GeneratePackage serves `pulumi package gen-sdk`: it binds the schema the engine sends, with the
// engine's loader for any package it refers to, generates the SDK and writes it under the requested folder.
// Schema errors go back as diagnostics, which the CLI prints with their place in the schema.
func GeneratePackage(
	ctx context.Context, req *pulumirpc.GeneratePackageRequest, generate Generator,
) (*pulumirpc.GeneratePackageResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, fmt.Errorf("could not reach the engine's schema loader: %w", err)
	}
	defer loader.Close()

	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.GetSchema()), &spec); err != nil {
		return nil, fmt.Errorf("the schema is not valid JSON: %w", err)
	}
	references := schema.NewCachedLoader(loader)
	pkg, diagnostics, err := schema.BindSpec(spec, references, schema.ValidationOptions{})
	if err != nil {
		return nil, err
	}
	if diagnostics.HasErrors() {
		return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diagnostics)}, nil
	}

	files, err := generate(pkg, req, references)
	if err != nil {
		return nil, err
	}
	for name, content := range files {
		path := filepath.Join(req.GetDirectory(), name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, content, 0o600); err != nil {
			return nil, err
		}
	}
	return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diagnostics)}, nil
}
