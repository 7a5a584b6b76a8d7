/** Bound to every address of the machine (kept apart from the HTTP transport, which loads only when used). */
export const isWildcard = (host: string): boolean => host === "0.0.0.0" || host === "::" || host === "[::]";
