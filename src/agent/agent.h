/*
** agent.h -- the contract between the native agent (libcccp-agent.so) and
** 'cccp-report dump': the request it reads and the codes it answers with.
*/
#ifndef CCCP_AGENT_H
#define CCCP_AGENT_H

/*
** The request is the options string of the attach 'load' command:
**
**   dump:R:PATH    R '0' or '1' (reset), PATH absolute, in UTF-8
**
** PATH runs to the end of the string, so it may hold ':'.
*/
#define CR_AGENT_REQUEST "dump:"

/*
** Agent_OnAttach's return value, which HotSpot sends back to the client
** ("return code: N" or "N"). Never 0 (JNI_OK): HotSpot keeps a record of
** every agent load that returns JNI_OK for as long as the JVM lives, so a
** service dumped every minute would grow without end; any other value
** makes it forget the load. The runtime's answers (Snapshot.take) are
** offset by CR_AGENT_BASE. ORDER as Snapshot's constants.
*/
enum {
  CR_AGENT_BASE = 100,
  CR_AGENT_OK = 100,            /* the profile is written */
  CR_AGENT_CANNOT_WRITE = 101,  /* the file could not be written */
  CR_AGENT_NOT_PROFILING = 102, /* the runtime is off */
  CR_AGENT_EXITING = 103,       /* the JVM is shutting down */
  CR_AGENT_NO_RUNTIME = 110,    /* no class cccp.rt.Snapshot */
  CR_AGENT_BAD_REQUEST = 111,   /* the options are not a request */
  CR_AGENT_JNI = 112            /* a JNI call failed */
};

#endif
