// Tolem payer page: polls the status of the payment (or of the refund's return QR) every 3 s while it
// waits, counts the QR's life down, and shows the panel of the state it reaches, saying it in the status
// line (a live region). Once paid it keeps asking for a while until the fiscal receipt's check link
// comes, and shows it. Without this script the page still works: everything is server-rendered and a
// plain link refreshes it.
(function () {
  'use strict';
  var root = document.getElementById('payer');
  if (!root) return;
  var d = root.dataset;
  if (!d.poll) return;
  var POLL_MS = 3000;
  var PAID = ['paid', 'partially_refunded', 'refunded'];
  // The receipt is issued by the cash register a few seconds after the payment; a minute or two at most.
  var RECEIPT_WAIT_MS = 2 * 60 * 1000;
  var receiptUntil = 0;
  var receipt = document.getElementById('receipt-link');

  function showReceipt(url) {
    if (!receipt || !url) return false;
    receipt.setAttribute('href', url);
    receipt.hidden = false;
    return true;
  }

  // After the payment: ask for its receipt until it comes or the wait is over.
  function awaitReceipt() {
    if (!receiptUntil) receiptUntil = Date.now() + RECEIPT_WAIT_MS;
    if (!receipt || !receipt.hidden || Date.now() > receiptUntil) return;
    setTimeout(pollReceipt, POLL_MS);
  }

  function pollReceipt() {
    fetch(d.poll, { credentials: 'same-origin', cache: 'no-store', headers: { accept: 'application/json' } })
      .then(function (r) {
        return r.ok ? r.json() : null;
      })
      .then(function (s) {
        if (!(s && showReceipt(s.check_url))) awaitReceipt();
      })
      .catch(awaitReceipt);
  }

  if (d.kind === 'payment' && PAID.indexOf(d.state) >= 0) awaitReceipt();
  if (d.state !== 'waiting') return;
  // A page left open long after its QR ran out stops asking; a reload (or the refresh link) starts again.
  var GIVE_UP_MS = 15 * 60 * 1000;
  var end = Date.parse(d.expiresAt || '');
  var stopAt = Math.max(end || 0, Date.now()) + GIVE_UP_MS;
  // The server-rendered refresh link is for pages without this script, or after it gives up.
  var refresh = document.getElementById('refresh');
  if (refresh) refresh.hidden = true;
  var timer = null;
  var done = false;

  function panelOf(status) {
    if (d.kind === 'refund') return status === 'pending' ? 'waiting' : status;
    return status === 'created' ? 'waiting' : status;
  }

  function show(name) {
    var target = document.getElementById('panel-' + name);
    if (!target) return false;
    var panels = root.querySelectorAll('section.panel');
    for (var i = 0; i < panels.length; i++) panels[i].hidden = panels[i] !== target;
    root.setAttribute('data-state', name);
    var text = document.getElementById('status-text');
    if (text) text.textContent = target.getAttribute('data-say') || '';
    var pulse = document.getElementById('pulse');
    if (pulse) pulse.hidden = name !== 'waiting';
    var line = document.getElementById('status');
    if (line) line.setAttribute('data-tone', name === 'waiting' ? 'waiting' : 'done');
    return true;
  }

  function onStatus(s) {
    var name = panelOf(s.status);
    if (name === 'waiting') return schedule(POLL_MS);
    // A state this page has no panel for: a reload renders it on the server.
    if (!show(name)) return window.location.reload();
    done = true;
    if (d.kind === 'payment' && PAID.indexOf(s.status) >= 0 && !showReceipt(s.check_url)) awaitReceipt();
  }

  function schedule(ms) {
    clearTimeout(timer);
    if (done) return;
    if (Date.now() > stopAt) {
      if (refresh) refresh.hidden = false;
      return;
    }
    timer = setTimeout(poll, ms);
  }

  function poll() {
    if (done) return;
    // A hidden tab asks again when it is shown.
    if (document.hidden) return;
    fetch(d.poll, { credentials: 'same-origin', cache: 'no-store', headers: { accept: 'application/json' } })
      .then(function (r) {
        return r.ok ? r.json() : null;
      })
      .then(function (s) {
        if (s && s.status) onStatus(s);
        else schedule(POLL_MS * 2);
      })
      .catch(function () {
        schedule(POLL_MS * 2);
      });
  }

  document.addEventListener('visibilitychange', function () {
    if (!document.hidden && !done) schedule(0);
  });

  function countdown() {
    var el = document.getElementById('countdown');
    if (!el || !end) return;
    (function tick() {
      if (done) return;
      var left = Math.max(0, Math.round((end - Date.now()) / 1000));
      el.textContent = Math.floor(left / 60) + ':' + ('0' + (left % 60)).slice(-2);
      // At zero the sweeper settles the QR soon: expired, or paid at the last second. Ask right away.
      if (left === 0) schedule(0);
      else setTimeout(tick, 1000);
    })();
  }

  countdown();
  schedule(POLL_MS);
})();
