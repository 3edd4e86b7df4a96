/** Vite's `?raw` imports: the file's text (the build resolves them; see joint-sources.ts). */
declare module '*?raw' {
  const text: string;
  export default text;
}
