/** A one-line progress bar on stderr (a line per step when stderr is not a terminal). */
export class ProgressBar {
  private readonly tty: boolean;
  constructor(
    private readonly out: NodeJS.WriteStream = process.stderr,
    private readonly width = 30,
  ) {
    this.tty = Boolean(out.isTTY);
  }

  update(label: string, done: number, total: number, detail = ''): void {
    const filled = total ? Math.round((done / total) * this.width) : 0;
    const bar = `[${'#'.repeat(filled)}${'.'.repeat(this.width - filled)}] ${done}/${total} ${label}${detail ? ` ${detail}` : ''}`;
    if (this.tty) this.out.write(`\r\u001b[2K${bar}`);
    else this.out.write(`${bar}\n`);
  }

  end(): void {
    if (this.tty) this.out.write('\n');
  }
}
