module github.com/service-pulumi/service-pulumi/sdk/go

go 1.25

require github.com/pulumi/pulumi/sdk/v3 v3.269.0
