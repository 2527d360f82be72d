/** One problem in a seller folder: the file, the JSON path inside it ('' for the whole file) and what is wrong. */
export interface CatalogIssue {
  file: string;
  path: string;
  message: string;
}

export function formatIssue(issue: CatalogIssue): string {
  return `${issue.file}: ${issue.path || '/'}: ${issue.message}`;
}

/**
 * A seller folder that cannot be loaded. `file` and `path` name the first problem; `issues` lists all of them
 * (the CLI prints every one). Nothing has been written when this is thrown.
 */
export class CatalogError extends Error {
  readonly file: string;
  readonly path: string;
  readonly issues: CatalogIssue[];
  constructor(issues: CatalogIssue[]) {
    const [first] = issues;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super(`${formatIssue(first)}${more}`);
    this.name = 'CatalogError';
    this.file = first.file;
    this.path = first.path;
    this.issues = issues;
  }
}

/** Collects issues while a step walks the folder, then throws them together. */
export class IssueList {
  readonly items: CatalogIssue[] = [];
  add(file: string, path: string, message: string) {
    this.items.push({ file, path, message });
  }
  throwIfAny() {
    if (this.items.length) throw new CatalogError(this.items);
  }
}

/** JSON Pointer segment escaping (RFC 6901), for paths built by hand. */
export function pointer(...segments: Array<string | number>): string {
  return segments.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
