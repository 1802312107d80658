// tidings: keyboard shortcuts and inline actions. Every action is a plain form or link that works
// without this script; the script only saves the page reload. Elements are found by data-*
// attributes, which the feed sanitizer never lets through, so feed content cannot pose as our UI.
(() => {
  const entries = () => Array.from(document.querySelectorAll('[data-timeline] article[data-entry]'));
  const current = () => document.querySelector('article[data-entry].is-current');

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

  function showUnread(channel, unread) {
    for (const link of document.querySelectorAll('a[data-channel]')) {
      if (link.getAttribute('data-channel') !== channel) continue;
      let count = link.querySelector('[data-unread]');
      if (unread > 0 && !count) {
        count = document.createElement('span');
        count.className = 'count';
        count.setAttribute('data-unread', '');
        link.append(count);
      }
      if (count && unread > 0) count.textContent = String(unread);
      else count?.remove();
    }
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

  // Stars or unstars an entry with fetch (the answer says which); on any failure, submits the form.
  async function sendSave(form) {
    try {
      const response = await fetch(form.action, {
        method: 'POST',
        body: new FormData(form),
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const result = await response.json();
      showSaved(form.closest('article[data-entry]'), result.saved === true);
      showSavedCount(result.savedCount);
    } catch {
      form.submit();
    }
  }

  // Sends an entry's form with fetch and updates the page; on any failure, submits it the usual way.
  async function send(form) {
    const entry = form.closest('article[data-entry]');
    try {
      const response = await fetch(form.action, {
        method: 'POST',
        body: new FormData(form),
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const result = await response.json();
      if (form.dataset.action === 'remove') {
        if (entry === current()) step(1);
        entry?.remove();
      } else if (entry) {
        showRead(entry, form.elements.namedItem('read').value === '1');
      }
      showUnread(result.channel, result.unread);
    } catch {
      form.submit();
    }
  }

  // Marks an entry read in the background when it is opened (the link itself marks it on the server).
  function opened(entry) {
    if (!entry || entry.classList.contains('is-read')) return;
    showRead(entry, true);
    const channel = document.querySelector('a[data-channel][aria-current="page"]');
    const unread = Number(channel?.querySelector('[data-unread]')?.textContent ?? 0);
    if (channel && unread > 0) showUnread(channel.getAttribute('data-channel'), unread - 1);
  }

  // On an entry's own page j/k/o go to the next/previous entry; in a list or river they move the selection.
  const entryPage = () => document.querySelector('[data-entry-page-view]');

  function go(selector) {
    const link = document.querySelector(selector);
    if (link) window.location.href = link.href;
  }

  function openCurrent() {
    if (entryPage()) return;
    const link = current()?.querySelector('a[data-entry-page]');
    if (link) window.location.href = link.href;
  }

  function viewOriginal() {
    const entry = entryPage() ? document.querySelector('article[data-entry]') : current();
    const link = entry?.querySelector('a[data-open]');
    if (!link) return;
    window.open(link.href, '_blank', 'noopener');
    opened(entry);
  }

  function toggleCurrent() {
    const entry = entryPage() ? document.querySelector('article[data-entry]') : current();
    const form = entry?.querySelector('form[data-action="toggle-read"]');
    if (form) send(form);
  }

  function saveCurrent() {
    const entry = entryPage() ? document.querySelector('article[data-entry]') : current();
    const form = entry?.querySelector('form[data-action="toggle-save"]');
    if (form) sendSave(form);
  }

  function toggleHelp(force) {
    const help = document.querySelector('[data-help]');
    if (help) help.hidden = force ?? !help.hidden;
  }

  const keys = {
    j: () => (entryPage() ? go('a[data-pager="older"]') : step(1)),
    k: () => (entryPage() ? go('a[data-pager="newer"]') : step(-1)),
    o: openCurrent,
    Enter: openCurrent,
    v: viewOriginal,
    m: toggleCurrent,
    s: saveCurrent,
    A: () => document.querySelector('form[data-action="mark-all"]')?.requestSubmit(),
    r: () => document.querySelector('form[data-action="refresh"]')?.requestSubmit(),
    '?': () => toggleHelp(),
    Escape: () => toggleHelp(true),
  };

  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof HTMLElement && target.closest('input, textarea, select, [contenteditable]')) return;
    // Enter on a focused link or button keeps its usual meaning
    if (event.key === 'Enter' && target instanceof HTMLElement && target.closest('a, button')) return;
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
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
