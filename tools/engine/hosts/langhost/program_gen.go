package langhost

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// ProgramGenerator turns a bound PCL program into a language's source files.
type ProgramGenerator func(program *pcl.Program) (map[string][]byte, hcl.Diagnostics, error)

// GenerateProgram serves the code that `pulumi import` and `pulumi convert` print: it parses the PCL the
// engine sends, binds it with the engine's schema loader, and generates the language's source with
// Pulumi's own program generator.
func GenerateProgram(
	_ context.Context, req *pulumirpc.GenerateProgramRequest, generate ProgramGenerator,
) (*pulumirpc.GenerateProgramResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, fmt.Errorf("could not reach the engine's schema loader: %w", err)
	}
	defer loader.Close()

	parser := syntax.NewParser()
	names := make([]string, 0, len(req.GetSource()))
	for name := range req.GetSource() {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := parser.ParseFile(strings.NewReader(req.GetSource()[name]), name); err != nil {
			return nil, err
		}
	}
	if parser.Diagnostics.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{
			Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(parser.Diagnostics),
		}, nil
	}

	var options []pcl.BindOption
	if !req.GetStrict() {
		options = pcl.NonStrictBindOptions()
	}
	program, diagnostics, err := pcl.BindProgram(parser.Files, schema.NewCachedLoader(loader), options...)
	if err != nil {
		return nil, err
	}
	if diagnostics.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diagnostics)}, nil
	}
	files, generated, err := generate(program)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProgramResponse{
		Source:      files,
		Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(append(diagnostics, generated...)),
	}, nil
}
