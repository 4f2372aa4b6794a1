/* The ptosim command. */
#include <stdio.h>
#include <string.h>

#include "ptosim/ptosim.h"

static int cmd_ops(void) {
  for (int i = 0; i < PTOSIM_OP_COUNT; i++) {
    ptosim_opcode op = (ptosim_opcode)i;
    printf("%-22s %-10s %-5s %-15s %s\n", ptosim_op_spelling(op), ptosim_op_family(op), ptosim_op_pipe(op),
           ptosim_op_implemented(op) ? "implemented" : "not-yet", ptosim_op_formula(op));
  }
  return 0;
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: ptosim <command> [args]\n"
          "commands:\n"
          "  ops         list every op of the op table (family, pipe, status, formula)\n"
          "  --version   print the version\n"
          "  --help      this text\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 1;
  }
  if (!strcmp(argv[1], "--version")) {
    printf("ptosim %s\n", PTOSIM_VERSION);
    return 0;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(argv[1], "ops")) return cmd_ops();
  fprintf(stderr, "ptosim: unknown command '%s'\n", argv[1]);
  usage(stderr);
  return 1;
}
