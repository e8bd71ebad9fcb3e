// Memory and CPU of a process together with its descendants, from Linux /proc. The built engine reads in OCR child
// processes (OcrProcessPool), whose memory and CPU belong to the worker as much as its own.
import { readdirSync, readFileSync } from 'node:fs';

/** Linux's USER_HZ (clock ticks per second in /proc/<pid>/stat). */
const CLOCK_TICKS = 100;

/** The pids of a process's living children (every thread's). */
function children(pid) {
  let out = [];
  for (const task of readdirSync(`/proc/${pid}/task`))
    out = out.concat(readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
  return out;
}

/** Resident bytes of a process and its descendants (Linux /proc; elsewhere this process's own). */
export function treeRss(pid = process.pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return kb * 1024 + children(pid).reduce((sum, c) => sum + treeRss(c), 0);
  } catch {
    return pid === process.pid ? process.memoryUsage().rss : 0;
  }
}

/**
 * CPU seconds (user + system) used so far by a process, its reaped children (a native tesseract run) and its living
 * descendants (the OCR reader processes), from Linux /proc; elsewhere undefined. Unlike wall time, it hardly moves
 * with the other load of a shared machine.
 */
export function treeCpu(pid = process.pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime, stime, cutime, cstime are fields 14–17 of stat (1-based), i.e. 11–14 after the command name.
    let ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    for (const c of children(pid)) ticks += (treeCpu(c) ?? 0) * CLOCK_TICKS;
    return ticks / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
