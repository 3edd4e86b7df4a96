// The dev server's pages are cross-origin isolated (COOP + COEP), as the static Storybook is when
// the tests serve it: SharedArrayBuffer, which <Physics workers> needs, exists only on such a page.
// Storybook loads this file and hands it its server's router.
export default function crossOriginIsolation(router) {
  router.use((_req, res, next) => {
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
    next();
  });
}
