/** Types of launcher-rewrite.mjs, for the TypeScript tests that import it. */

/** The bundle's code with `import()` given to the launcher and restated `keepNames` wrappers dropped. */
export declare function rewriteForLauncher(code: string): string;
