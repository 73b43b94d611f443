// Package examples holds no code. Its tests keep examples/ and the book in
// docs/ true to the code (REQ-DOC-002): every configuration example parses
// with the real parsers, every request example gives the answer its name
// promises, every TOML and JSON block of the book parses, and the book's
// reference pages cover every word of the closed vocabularies, every
// configuration key and every HTTP status, so that a word, key or status
// added later fails the tests until it is documented. examples/README.md
// says how the examples are named.
package examples
