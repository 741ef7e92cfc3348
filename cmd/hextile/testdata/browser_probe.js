// Appended to a page (or an SVG document) by browser_test.go before headless
// chromium loads it: on load, it records what the browser made of the page
// (script errors, XML parse errors, tables, and every SVG element with its
// rendered size and its polygons and rects) as JSON in a desc element with
// the id hextile-check, which --dump-dom prints.
(function () {
  var errs = [];
  window.addEventListener('error', function (e) { errs.push(String(e.message)); });
  window.addEventListener('load', function () {
    var SVG = 'http://www.w3.org/2000/svg';
    var r = {
      errors: errs,
      parsererror: document.getElementsByTagName('parsererror').length,
      tables: document.getElementsByTagName('table').length,
      svgs: []
    };
    var ss = document.getElementsByTagNameNS(SVG, 'svg');
    for (var i = 0; i < ss.length; i++) {
      var b = ss[i].getBoundingClientRect();
      r.svgs.push({
        w: b.width, h: b.height,
        polygons: ss[i].getElementsByTagNameNS(SVG, 'polygon').length,
        rects: ss[i].getElementsByTagNameNS(SVG, 'rect').length
      });
    }
    var ns = document.documentElement.namespaceURI === SVG ? SVG : 'http://www.w3.org/1999/xhtml';
    var p = document.createElementNS(ns, 'desc');
    p.setAttribute('id', 'hextile-check');
    p.textContent = JSON.stringify(r);
    document.documentElement.appendChild(p);
  });
})();
