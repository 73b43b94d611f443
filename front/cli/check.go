package cli

import (
	"flag"
	"fmt"
)

func checkCmd(args []string, st Streams, env Env) int {
	var configPath string
	pos, err := flags("check", args, func(fs *flag.FlagSet) {
		fs.StringVar(&configPath, "config", "", "configuration file")
	})
	if err != nil {
		return usageError(st.Stderr, err)
	}
	if len(pos) > 0 {
		return usageError(st.Stderr, fmt.Errorf("unexpected argument %q", pos[0]))
	}
	_, path, err := loadConfig(configPath, env)
	if err != nil {
		printLines(st.Stderr, err)
		return ExitInvalid
	}
	if path == "" {
		path = "no configuration file: the defaults"
	}
	fmt.Fprintf(st.Stdout, "%s: valid\n", path)
	return ExitOK
}
