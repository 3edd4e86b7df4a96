import { launchBrowser, serveStatic, openPage, readProbe, waitForProbe, canvasBox } from '@fulcrum/browser-testing';
const server = await serveStatic('storybook-static');
const browser = await launchBrowser();
const p = await openPage(browser, `${server.url}/iframe.html?id=scenes-instanced-bodies--two-thousand-boxes&viewMode=story`);
await waitForProbe(p.page, (pr) => pr.frames > 5 && pr.awakeBodies === 0, { timeout: 60000 });
const b = await readProbe(p.page);
console.log(JSON.stringify(b.dragTarget), await canvasBox(p.page, '#storybook-root canvas'), await p.page.evaluate(() => { const c = document.querySelector('#storybook-root canvas'); return [c.width, c.height, c.style.width, c.style.height, c.parentElement.getBoundingClientRect().height]; }));
await browser.close(); await server.close();
