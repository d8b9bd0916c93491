// Types for `import '@chatwire/ui/styles.css'` (a side-effect import: the stylesheet exports nothing), so
// TypeScript accepts it without a bundler's own `*.css` declaration.
export {};
