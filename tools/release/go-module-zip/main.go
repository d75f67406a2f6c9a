// Command go-module-zip writes a Go module's zip as the module proxy serves it, by the rules of
// golang.org/x/mod/zip (every file under <module>@<version>/, no nested module, no vendor folder), so that
// `GOPROXY=file://…` accepts it exactly as it would a zip the proxy made from the version tag.
//
// Usage: go run . <module folder> <module path> <version> <zip file>
package main

import (
	"fmt"
	"os"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

func main() {
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: go-module-zip <module folder> <module path> <version> <zip file>")
		os.Exit(2)
	}
	dir, path, version, out := os.Args[1], os.Args[2], os.Args[3], os.Args[4]
	file, err := os.Create(out)
	if err == nil {
		err = modzip.CreateFromDir(file, module.Version{Path: path, Version: version}, dir)
		if closeErr := file.Close(); err == nil {
			err = closeErr
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "go-module-zip: the zip of %s@%s from %s: %v\n", path, version, dir, err)
		os.Exit(1)
	}
}
