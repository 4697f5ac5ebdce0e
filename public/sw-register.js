// Registers the service worker (sw.js) with the site's base path as its scope, so the site keeps
// working offline after the first visit. A file of its own because the Content-Security-Policy
// allows no inline script. Once the worker controls the page it is told what the page fetched
// before (the first visit's app, worker and bundle files), so those are cached too.
'use strict';
(function () {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  const base = new URL('./', document.baseURI);
  const sendLoaded = () => {
    const sw = navigator.serviceWorker.controller;
    if (!sw) return;
    const urls = performance.getEntriesByType('resource').map((e) => e.name)
      .filter((u) => u.startsWith(base.href));
    sw.postMessage({ type: 'cache', urls });
  };
  navigator.serviceWorker.addEventListener('controllerchange', sendLoaded);
  window.addEventListener('load', () => {
    navigator.serviceWorker.register(new URL('sw.js', base).href, { scope: base.pathname })
      .then(() => navigator.serviceWorker.ready)
      .then(sendLoaded)
      .catch((err) => console.warn('refscore: no offline copy (service worker):', err && err.message));
  });
})();
