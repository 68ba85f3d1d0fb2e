/*
 * tools/explain.h - topo_table --explain (tools/explain.c): argv after
 * "--explain"; returns the exit status.
 */
#ifndef BLX_TOOL_EXPLAIN_H
#define BLX_TOOL_EXPLAIN_H

int blx_tool_explain(int argc, char **argv);

#endif
