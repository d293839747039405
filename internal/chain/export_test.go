package chain

// FormatArg is formatArg, for the external tests (package chain_test) that compare a
// revert's arguments as its reason prints them.
var FormatArg = formatArg
