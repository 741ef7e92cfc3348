package poly

// The set-layer stubs that used to live here are implemented in space.go,
// set.go, map.go, lexopt.go and enumerate.go. Only the helper the remaining
// stub files (conj_stubs.go, lp_stubs.go, api_stubs_parse.go) use is left;
// delete this file together with the last of them.

func unimplemented(what string) { panic("poly: " + what + " not implemented yet") }
