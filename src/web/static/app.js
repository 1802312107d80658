// tidings: keyboard shortcuts and inline actions. Every action is a plain form or link that works
// without this script; the script only saves the page reload. Elements are found by data-*
// attributes, which the feed sanitizer never lets through, so feed content cannot pose as our UI.
(() => {
  const entries = () => Array.from(document.querySelectorAll('[data-timeline] article[data-entry]'));
  const current = () => document.querySelector('article[data-entry].is-current');
  // On an entry's own page j/k go to the next/previous entry; in a list or river they move the selection.
  const entryPage = () => document.querySelector('[data-entry-page-view]');
  // The entry the keys act on: the page's own on an entry page, else the one selected.
  const target = () => (entryPage() ? document.querySelector('article[data-entry]') : current());
  const inView = (selector) => document.querySelector(`[data-timeline] ${selector}`) !== null;

  function select(entry) {
    if (!entry) return;
    current()?.classList.remove('is-current');
    entry.classList.add('is-current');
    entry.scrollIntoView({ block: 'start' });
  }

  function step(delta) {
    const list = entries();
    if (list.length === 0) return;
    const index = list.indexOf(current());
    const next = index < 0 ? 0 : Math.min(Math.max(index + delta, 0), list.length - 1);
    select(list[next]);
  }

  function showRead(entry, read) {
    entry.classList.toggle('is-read', read);
    const dot = entry.querySelector('[data-read-dot]');
    if (dot) dot.title = read ? 'Mark unread' : 'Mark read';
    const form = entry.querySelector('form[data-action="toggle-read"]');
    if (form) {
      form.elements.namedItem('read').value = read ? '0' : '1';
      const label = form.querySelector('[data-read-label]');
      if (label) label.textContent = read ? 'Mark unread' : 'Mark read';
    }
    const badge = entry.querySelector('.entry-meta .badge');
    if (badge) {
      badge.textContent = read ? 'read' : 'unread';
      badge.classList.toggle('unread', !read);
    }
  }

  // Sets every unread count the page draws (sidebar, title) from the server's answer to an action: the
  // keys are the elements' data-count, as routes/counts.ts writes them.
  function showCounts(counts) {
    if (!counts) return;
    for (const element of document.querySelectorAll('[data-count]')) {
      const unread = counts.unread[element.getAttribute('data-count')];
      if (typeof unread !== 'number') continue;
      element.textContent = String(unread);
      element.hidden = unread === 0;
    }
    const title = document.querySelector('title[data-title-count]');
    const unread = title && counts.unread[title.getAttribute('data-title-count')];
    if (typeof unread === 'number') {
      const base = title.getAttribute('data-title');
      document.title = unread > 0 ? `(${unread}) ${base}` : base;
    }
    showSavedCount(counts.saved);
  }

  function showSaved(entry, saved) {
    const form = entry?.querySelector('form[data-action="toggle-save"]');
    if (!form) return;
    form.elements.namedItem('saved').value = saved ? '0' : '1';
    const button = form.querySelector('[data-save-label]');
    if (!button) return;
    button.textContent = saved ? 'Saved' : 'Save';
    button.setAttribute('aria-pressed', saved ? 'true' : 'false');
    button.title = saved ? 'Saved: press to unsave (s)' : 'Save this entry (s)';
  }

  function showSavedCount(count) {
    const badge = document.querySelector('[data-saved-count]');
    if (!badge || typeof count !== 'number') return;
    badge.textContent = String(count);
    badge.hidden = count === 0;
  }

  async function post(form) {
    const response = await fetch(form.action, {
      method: 'POST',
      body: new FormData(form),
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response.json();
  }

  // Stars or unstars an entry with fetch (the answer says which); on any failure, submits the form.
  async function sendSave(form) {
    try {
      const result = await post(form);
      showSaved(form.closest('article[data-entry]'), result.saved === true);
      showCounts(result.counts);
    } catch {
      form.submit();
    }
  }

  // Sends an entry's form with fetch and updates the page; on any failure, submits it the usual way.
  async function send(form) {
    const entry = form.closest('article[data-entry]');
    try {
      const read = form.dataset.action === 'toggle-read' && form.elements.namedItem('read').value === '1';
      const result = await post(form);
      if (form.dataset.action === 'remove') {
        if (entry === current()) step(1);
        entry?.remove();
      } else if (entry) {
        showRead(entry, read);
      }
      showCounts(result.counts);
    } catch {
      form.submit();
    }
  }

  // An entry's original was opened (its link goes through /c/UID/open/ID, which marks it read there):
  // mark it read here too, with the answer's counts.
  function opened(entry) {
    if (!entry || entry.classList.contains('is-read')) return;
    const form = entry.querySelector('form[data-action="toggle-read"]');
    if (form && form.elements.namedItem('read').value === '1') send(form);
  }

  function go(selector) {
    const link = document.querySelector(selector);
    if (link) window.location.href = link.href;
  }

  function openCurrent() {
    const link = current()?.querySelector('a[data-entry-page]');
    if (link) window.location.href = link.href;
  }

  function viewOriginal() {
    const entry = target();
    const href = entry?.getAttribute('data-original');
    if (!href) return;
    window.open(href, '_blank', 'noopener');
    opened(entry);
  }

  function toggleCurrent() {
    const form = target()?.querySelector('form[data-action="toggle-read"]');
    if (form) send(form);
  }

  function saveCurrent() {
    const form = target()?.querySelector('form[data-action="toggle-save"]');
    if (form) sendSave(form);
  }

  const move = (delta, pager) => () => (entryPage() ? go(`a[data-pager="${pager}"]`) : step(delta));
  const canMove = () => entryPage() !== null || entries().length > 0;
  const canOpen = () => entryPage() === null && inView('a[data-entry-page]');

  // Each key with what it does and whether this page has anything for it: the help lists a key only
  // where it works (data-key), with the same test the key itself relies on.
  const keys = {
    j: { run: move(1, 'older'), works: canMove },
    k: { run: move(-1, 'newer'), works: canMove },
    o: { run: openCurrent, works: canOpen },
    Enter: { run: openCurrent, works: canOpen },
    v: { run: viewOriginal, works: () => inView('article[data-original]') },
    m: { run: toggleCurrent, works: () => inView('form[data-action="toggle-read"]') },
    s: { run: saveCurrent, works: () => inView('form[data-action="toggle-save"]') },
    A: {
      run: () => document.querySelector('form[data-action="mark-all"]')?.requestSubmit(),
      works: () => document.querySelector('form[data-action="mark-all"]') !== null,
    },
    r: {
      run: () => document.querySelector('form[data-action="refresh"]')?.requestSubmit(),
      works: () => document.querySelector('form[data-action="refresh"]') !== null,
    },
    '?': { run: () => toggleHelp(), works: () => true },
    Escape: { run: () => toggleHelp(true), works: () => true },
  };

  function toggleHelp(force) {
    const help = document.querySelector('[data-help]');
    if (!help) return;
    for (const row of help.querySelectorAll('[data-key]')) {
      row.hidden = !keys[row.getAttribute('data-key')]?.works();
    }
    help.hidden = force ?? !help.hidden;
  }

  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof HTMLElement && target.closest('input, textarea, select, [contenteditable]')) return;
    // Enter on a focused link or button keeps its usual meaning
    if (event.key === 'Enter' && target instanceof HTMLElement && target.closest('a, button')) return;
    const key = keys[event.key];
    if (!key) return;
    event.preventDefault();
    key.run();
  });

  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    const action = form.dataset.action;
    if (action === 'confirm') {
      const question = event.submitter?.getAttribute('data-confirm') ?? 'Are you sure?';
      if (!window.confirm(question)) event.preventDefault();
    } else if (action === 'toggle-read' || action === 'remove') {
      event.preventDefault();
      send(form);
    } else if (action === 'toggle-save') {
      event.preventDefault();
      sendSave(form);
    }
  });

  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[data-open]') : null;
    if (link) opened(link.closest('article[data-entry]'));
    const entry =
      event.target instanceof Element ? event.target.closest('[data-timeline] article[data-entry]') : null;
    if (entry && entry !== current()) {
      current()?.classList.remove('is-current');
      entry.classList.add('is-current');
    }
  });
})();
