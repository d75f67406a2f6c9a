package langhost

import (
	"encoding/json"
	"fmt"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// pluginFile is the part of a generated SDK's pulumi-plugin.json that names the plugin it needs.
type pluginFile struct {
	Resource bool   `json:"resource"`
	Name     string `json:"name"`
	Version  string `json:"version"`
	Server   string `json:"server"`
}

// PackagesFromPluginFiles reads the pulumi-plugin.json files of a program's installed SDKs, as the real
// hosts do, and returns the resource plugins they require; an SDK that says it needs none is skipped.
// The `from` of each file names it in the error when one cannot be read.
func PackagesFromPluginFiles(files map[string][]byte) ([]*pulumirpc.PackageDependency, error) {
	var packages []*pulumirpc.PackageDependency
	for from, text := range files {
		var file pluginFile
		if err := json.Unmarshal(text, &file); err != nil {
			return nil, fmt.Errorf("%s is not valid JSON: %w", from, err)
		}
		if !file.Resource || file.Name == "" {
			continue
		}
		packages = append(packages, &pulumirpc.PackageDependency{
			Kind: "resource", Name: file.Name, Version: file.Version, Server: file.Server,
		})
	}
	return packages, nil
}

// PluginsOf is the deprecated GetRequiredPlugins answer that older engines still ask for.
func PluginsOf(packages []*pulumirpc.PackageDependency) []*pulumirpc.PluginDependency {
	plugins := make([]*pulumirpc.PluginDependency, 0, len(packages))
	for _, p := range packages {
		plugins = append(plugins, &pulumirpc.PluginDependency{
			Name: p.Name, Kind: p.Kind, Version: p.Version, Server: p.Server,
		})
	}
	return plugins
}
