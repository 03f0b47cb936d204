// What the kernel says about a process and the machine (Linux /proc): CPU time,
// memory, load average. Everything else in the bench is portable; these read 0 or
// null where /proc is missing, and the report says so.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

function clockTicksPerSecond() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
}
const TICKS_PER_SECOND = clockTicksPerSecond();

/** User + system CPU time of the process (all its threads) in ms; null without /proc. */
export function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Resident memory now (VmRSS) and its peak (VmHWM), in MB; null without /proc. */
export function memoryMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** The 1, 5 and 15 minute load averages, as /proc/loadavg prints them. */
export function loadAverage() {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
}
