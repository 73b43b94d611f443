package lpdf

// IsSpace reports a PDF white-space byte, as the reader's lexer reads it
// (rypsok's addition: front/pdf scans a file's bytes by the same rules).
func IsSpace(b byte) bool { return isSpace(b) }

// IsDelim reports a PDF delimiter byte, as the reader's lexer reads it
// (rypsok's addition).
func IsDelim(b byte) bool { return isDelim(b) }
