/*
 * The 3.4.2 console's frame: each menu entry opens its page in a tab (an
 * iframe of the same origin); a tab already open is shown again instead of
 * opened twice. The first menu entry's tab (the dashboard) cannot be
 * closed. The tab bar scrolls, closes the current, the other or all tabs,
 * reloads the current one and shows the whole console full screen. The
 * address's #fragment names the current tab, so a reload (or a link)
 * reopens it, as the 3.4.2 admin does; only a path of this console is
 * taken from it (the 3.4.2 frame puts whatever follows the # into the
 * iframe's src, a javascript: URL included). Pages inside the tabs open further tabs through
 * XJ.openTab (the job list's "query log").
 *
 * The header's theme menu switches the AdminLTE skin (theme.js); the
 * sidebar's collapsed state is kept in localStorage under the 3.4.2 key.
 * The password dialog and the logout are common.js's.
 */
(function (window, $, XJ) {
  'use strict';

  var document = window.document;
  var SIDEBAR_KEY = 'admin_sidebar_status';
  var NAME_MAX = 15; // longer tab names are cut, the whole name is the title

  var $tabs, $frames, home;

  function tabs() {
    return $tabs.children('.xj-tab');
  }

  function tabFor(url) {
    return tabs().filter(function () { return $(this).attr('data-url') === url; });
  }

  function frameFor(url) {
    return $frames.children('iframe').filter(function () { return $(this).attr('data-url') === url; });
  }

  // consolePath accepts a path of this console below the context path
  // ("/joblog?jobId=2"): one leading slash, no scheme, host or backslash,
  // so a tab can only ever show a page of this origin.
  function consolePath(p) {
    return typeof p === 'string' && /^\/(?![\/\\])[^\\\u0000-\u001f]*$/.test(p) && p !== '/' ? p : null;
  }

  // fromAddress reads the tab the address's #fragment names: the page's
  // URL path, context path included, as the 3.4.2 frame writes it.
  function fromAddress() {
    var h = window.location.hash.slice(1);
    try {
      h = window.decodeURI(h);
    } catch (e) {
      return null;
    }
    if (XJ.base) {
      if (h.indexOf(XJ.base + '/') !== 0) {
        return null;
      }
      h = h.slice(XJ.base.length);
    }
    return consolePath(h);
  }

  function current() {
    return tabs().filter('.active').attr('data-url');
  }

  function remember(url) {
    var hash = url ? '#' + XJ.base + url : '';
    if (window.location.hash !== hash && window.history && window.history.replaceState) {
      window.history.replaceState(null, '', window.location.pathname + window.location.search + hash);
    }
  }

  function activate(url) {
    tabs().removeClass('active');
    $frames.children('iframe').hide();
    var $tab = tabFor(url).addClass('active');
    frameFor(url).show();
    var path = url.split('?')[0];
    $('.xj-menu-item').removeClass('active').filter(function () {
      return $(this).find('a').attr('data-url') === path;
    }).addClass('active');
    remember(url);
    scrollTo($tab);
  }

  /** open shows the tab of a console path, creating it (and its iframe) the first time. */
  function open(url, name) {
    url = consolePath(url);
    if (!url) {
      return;
    }
    name = $.trim(name || '') || url;
    if (!tabFor(url).length) {
      var shown = name.length > NAME_MAX ? name.slice(0, NAME_MAX) + '...' : name;
      var $tab = $('<a href="#" class="xj-tab"></a>').attr({ 'data-url': url, title: name }).text(shown);
      if (url !== home) {
        $tab.append(' ').append($('<i class="fa fa-times-circle xj-tab-close" aria-hidden="true"></i>'));
      }
      $tabs.append($tab);
      $('<iframe class="xj-tab-frame" frameborder="0"></iframe>').attr({ 'data-url': url, title: name })
        .attr('src', XJ.url(url)).appendTo($frames);
    }
    activate(url);
  }

  function close(url) {
    if (!url || url === home) {
      return;
    }
    var $tab = tabFor(url);
    var wasActive = $tab.hasClass('active');
    // the next tab takes over, else the one before (as the 3.4.2 frame)
    var $next = $tab.next('.xj-tab').length ? $tab.next('.xj-tab') : $tab.prev('.xj-tab');
    $tab.remove();
    frameFor(url).remove();
    if (wasActive && $next.length) {
      activate($next.attr('data-url'));
    }
  }

  function scrollTo($tab) {
    if (!$tab.length) {
      return;
    }
    var $nav = $tabs.parent();
    var left = $tab.position().left + $nav.scrollLeft();
    if (left < $nav.scrollLeft() || left + $tab.outerWidth() > $nav.scrollLeft() + $nav.width()) {
      $nav.scrollLeft(Math.max(0, left - 40));
    }
  }

  function skins() {
    var $list = $('#xj-skin-modal .xj-skins');
    $.each(XJ.theme.skins, function (_, s) {
      var words = s.replace('skin-', '').split('-');
      var label = words[0].charAt(0).toUpperCase() + words[0].slice(1) + (words[1] ? ' (Light)' : '');
      var $a = $('<a href="#" class="xj-skin clearfix"></a>').attr({ 'data-skin': s, title: label })
        .addClass('xj-swatch-' + s);
      $a.append('<span class="xj-sw-logo"></span><span class="xj-sw-bar"></span><span class="xj-sw-side"></span><span class="xj-sw-body"></span>');
      $('<li></li>').append($a, $('<p class="text-center"></p>').text(label)).appendTo($list);
    });
    $(document).on('click', '.xj-change-skin', function (e) {
      e.preventDefault();
      $('#xj-skin-modal').modal({ backdrop: true, keyboard: true, show: true });
    });
    $list.on('click', '.xj-skin', function (e) {
      e.preventDefault();
      XJ.theme.choose($(this).attr('data-skin'));
    });
  }

  function sidebar() {
    var closed = false;
    try {
      closed = window.localStorage.getItem(SIDEBAR_KEY) === 'close';
    } catch (e) { /* open */ }
    $('body').toggleClass('sidebar-collapse', closed);
    $(document).on('collapsed.pushMenu expanded.pushMenu', function (e) {
      try {
        window.localStorage.setItem(SIDEBAR_KEY, e.type === 'collapsed' ? 'close' : 'open');
      } catch (err) { /* not kept */ }
    });
  }

  function fullscreen() {
    if (document.fullscreenElement) {
      document.exitFullscreen();
    } else if (document.documentElement.requestFullscreen) {
      document.documentElement.requestFullscreen();
    }
  }

  $(function () {
    $tabs = $('.xj-tabs-inner');
    $frames = $('.xj-tab-frames');
    skins();
    sidebar();
    $(document).on('click', '.xj-open-tab', function (e) {
      e.preventDefault();
      open($(this).attr('data-url'), $(this).text());
    });
    $tabs.on('click', '.xj-tab', function (e) {
      e.preventDefault();
      if ($(e.target).hasClass('xj-tab-close')) {
        close($(this).attr('data-url'));
        return;
      }
      activate($(this).attr('data-url'));
    });
    $('.xj-tab-close-current').on('click', function (e) {
      e.preventDefault();
      close(current());
    });
    $('.xj-tab-close-other').on('click', function (e) {
      e.preventDefault();
      var keep = current();
      tabs().each(function () {
        var url = $(this).attr('data-url');
        if (url !== keep) {
          close(url);
        }
      });
    });
    $('.xj-tab-close-all').on('click', function (e) {
      e.preventDefault();
      tabs().each(function () { close($(this).attr('data-url')); });
      activate(home);
    });
    $('.xj-tab-reload').on('click', function (e) {
      e.preventDefault();
      var f = frameFor(current()).get(0);
      if (f && f.contentWindow) {
        f.contentWindow.location.reload();
      }
    });
    $('.xj-tab-fullscreen').on('click', function (e) {
      e.preventDefault();
      fullscreen();
    });
    $('.xj-tab-left, .xj-tab-right').on('click', function () {
      var $nav = $tabs.parent();
      $nav.scrollLeft($nav.scrollLeft() + ($(this).hasClass('xj-tab-left') ? -200 : 200));
    });

    // the first menu entry's tab, then the one the address names
    var $first = $('.xj-open-tab').first();
    home = $first.attr('data-url');
    var wanted = fromAddress();
    if (home) {
      open(home, $first.text());
    }
    if (wanted && wanted !== home) {
      var $item = $('.xj-open-tab').filter(function () { return $(this).attr('data-url') === wanted; });
      open(wanted, $item.length ? $item.text() : wanted);
    }
  });

  XJ.openTab = open;
})(window, window.jQuery, window.XJ);
