#ifndef MYWORKOUT_CSPAWN_SHIM_H
#define MYWORKOUT_CSPAWN_SHIM_H

#include <spawn.h>

/// glibc's (2.34 and later) `closefrom` as a spawn action: the child closes every descriptor from
/// `from` up, whatever its close-on-exec flag, so it holds nothing its parent had open. <spawn.h>
/// declares it only under _GNU_SOURCE, which Swift's Glibc module is built without.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

/// glibc's `pipe2` (declared only under _GNU_SOURCE too): with `O_CLOEXEC`, both ends are
/// close-on-exec from their making, so a child that another thread starts in that moment cannot
/// take them with it (a `pipe` then `fcntl` leaves a window between the two).
extern int pipe2(int pipefd[2], int flags);

#endif
