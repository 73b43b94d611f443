// Command minimal is the smallest useful go-sdk MCP server: one tool,
// "echo", over stdio. It is the yardstick of the cold-start measurement:
// rypsok serve should answer initialize within twice its time.
package main

import (
	"context"
	"errors"
	"io"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoArgs struct {
	Text string `json:"text" jsonschema:"the text to echo"`
}

type echoResult struct {
	Text string `json:"text"`
}

func echo(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, echoResult, error) {
	return nil, echoResult(in), nil
}

func main() {
	server := mcp.NewServer(&mcp.Implementation{Name: "minimal", Version: "v0.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "echo", Description: "Echo the text."}, echo)
	err := server.Run(context.Background(), &mcp.StdioTransport{})
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, mcp.ErrConnectionClosed) {
		log.Fatal(err)
	}
}
