package ast

import (
	"hextile/frontend"
)

// ScopCode is one scop with its generated AST.
type ScopCode struct {
	Scop *frontend.Scop
	AST  *AST
	// Orig is the AST of the scop's original schedule (used by the harness
	// to count statement instances cheaply); may be nil.
	Orig *AST
	// Note is a one-line description printed above the code (the schedule).
	Note string
}
