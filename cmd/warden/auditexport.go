package main

import (
	"bufio"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden/audit"
)

func newAuditExportCmd() *cobra.Command {
	var dsn, output string
	var force bool
	var f filterFlags
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write the selected events as JSONL, each as stored with its hash",
		Long: `export writes the events the filters select, one JSON line each, in order:
  {"seq":N,"hash":"<hex SHA-256>","event":{…the event as stored…}}
The event is the stored canonical JSON, byte for byte (secrets were masked
before it was stored), so the hash can be checked again from the line:
SHA-256 of "warden audit record v1", a zero byte, and the event's bytes.
A stored event that is not valid JSON (the database was written by
something else) is exported, base64, in "event_base64" instead of "event".
The lines go to stdout, or to --output FILE: created mode 0600, written whole
or not at all, and never over an existing file without --force.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			flt, err := f.filter(time.Now())
			if err != nil {
				return err
			}
			s, err := openAuditStore(cmd.Context(), dsn)
			if err != nil {
				return err
			}
			defer s.Close()
			write := func(w io.Writer) error {
				bw := bufio.NewWriterSize(w, 64<<10)
				var line []byte
				err := s.b.Scan(cmd.Context(), flt, func(r *audit.Record) error {
					line = exportLine(line[:0], r)
					_, err := bw.Write(line)
					return err
				})
				if err != nil {
					return fmt.Errorf("exporting the audit trail of %s: %w", s.name, err)
				}
				return bw.Flush()
			}
			if output == "" {
				return write(cmd.OutOrStdout())
			}
			return writeFileAtomic(output, force, write)
		},
	}
	storeFlag(cmd, &dsn)
	f.register(cmd)
	cmd.Flags().StringVarP(&output, "output", "o", "", "write to this file (mode 0600) instead of stdout")
	cmd.Flags().BoolVar(&force, "force", false, "replace the --output file if it exists")
	return cmd
}

// exportLine appends r's export line to dst. A stored event that is not
// valid JSON (someone wrote the database) would break the line, and with
// it the JSONL of every line after: its bytes go, base64, in "event_base64"
// instead of "event", still exactly what the hash covers.
func exportLine(dst []byte, r *audit.Record) []byte {
	dst = append(dst, `{"seq":`...)
	dst = strconv.AppendInt(dst, r.Seq, 10)
	dst = append(dst, `,"hash":"`...)
	dst = hex.AppendEncode(dst, r.Hash)
	if !json.Valid(r.Data) {
		dst = append(dst, `","event_base64":"`...)
		dst = base64.StdEncoding.AppendEncode(dst, r.Data)
		return append(dst, "\"}\n"...)
	}
	dst = append(dst, `","event":`...)
	dst = append(dst, r.Data...)
	return append(dst, "}\n"...)
}

// writeFileAtomic writes the file path with write: into a temporary file
// (mode 0600) in its directory, synced, then put in place, so that path
// holds the whole output or is untouched. Without force an existing path
// is an error, and stays as it was.
func writeFileAtomic(path string, force bool, write func(io.Writer) error) error {
	if !force {
		if _, err := os.Lstat(path); err == nil {
			return fmt.Errorf("--output %s: the file exists; give --force to replace it", path)
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("--output: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("--output: %w", err)
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("--output: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("--output: %w", err)
	}
	if force {
		err = os.Rename(tmp.Name(), path)
	} else if err = os.Link(tmp.Name(), path); errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("--output %s: the file exists; give --force to replace it", path)
	}
	if err != nil {
		return fmt.Errorf("--output: %w", err)
	}
	return nil
}
