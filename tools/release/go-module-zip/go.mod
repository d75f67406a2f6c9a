module github.com/service-pulumi/service-pulumi/tools/release/go-module-zip

go 1.25.0

require golang.org/x/mod v0.35.0
