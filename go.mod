module hextile

go 1.26.8

require (
	github.com/ebitengine/purego v0.8.4
	github.com/google/go-cmp v0.7.0
	github.com/llir/llvm v0.3.6
	github.com/spf13/pflag v1.0.6
)

require (
	github.com/mewmew/float v0.0.0-20201204173432-505706aa38fa // indirect
	github.com/pkg/errors v0.9.1 // indirect
	golang.org/x/mod v0.4.2 // indirect
	golang.org/x/sys v0.0.0-20210510120138-977fb7262007 // indirect
	golang.org/x/tools v0.1.4 // indirect
	golang.org/x/xerrors v0.0.0-20200804184101-5ec99f83aff1 // indirect
)
