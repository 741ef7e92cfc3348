package poly

import (
	"testing"

	"hextile/internal/testgc"
)

// TestMain runs the package's tests with a lazier collector (testgc).
func TestMain(m *testing.M) { testgc.Main(m) }
