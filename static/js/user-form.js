/*
 * The user form of both consoles' user lists (add and edit): the username
 * (4..20, a lower-case letter first, then lower-case letters and digits;
 * not changed on edit), the password (4..20; blank on edit keeps it), the
 * role and, for a normal user, the executors it may use (their ids joined
 * with ","). Saves through /user/add (3.x /user/insert) and /user/update.
 *
 * XJ.userForm({reload(firstPage)}) -> { open(row | null) }
 */
(function (window, $, XJ) {
  'use strict';

  XJ.userForm = function (opts) {
    var $modal = $('#xj-user-modal');
    var $form = $modal.find('form');
    var field = function (name) { return $form.find('[name=' + name + ']'); };
    var editing = false;

    function applyRole() {
      $form.find('.xj-permission').toggle($form.find('[name=role]:checked').val() !== '1');
    }
    $form.find('[name=role]').on('change', applyRole);

    $.validator.addMethod('xjUsername', function (value, element) {
      return this.optional(element) || /^[a-z][a-z0-9]*$/.test(value);
    });

    var validator = $form.validate($.extend({}, XJ.validatorDefaults, {
      rules: {
        // the username is never changed on edit, so only a new one is checked
        username: {
          required: true,
          rangelength: { param: [4, 20], depends: function () { return !editing; } },
          xjUsername: { depends: function () { return !editing; } }
        },
        password: {
          required: { depends: function () { return !editing; } },
          rangelength: [4, 20]
        }
      },
      messages: {
        username: {
          required: XJ.t('system_please_input') + XJ.t('user_username'),
          rangelength: XJ.t(XJ.keys.lengthLimit) + '[4-20]',
          xjUsername: XJ.t('user_username_valid')
        },
        password: {
          required: XJ.t('system_please_input') + XJ.t('user_password'),
          rangelength: XJ.t(XJ.keys.lengthLimit) + '[4-20]'
        }
      },
      errorPlacement: function (error, element) {
        error.appendTo(element.closest('div'));
      },
      submitHandler: function () {
        var role = $form.find('[name=role]:checked').val();
        var permission = role === '1' ? '' : $form.find('[name=permission]:checked').map(function () {
          return this.value;
        }).get().join(',');
        var data = {
          username: field('username').val(),
          password: field('password').val(),
          role: role,
          permission: permission
        };
        var path = XJ.gen3 ? '/user/insert' : '/user/add';
        var words = XJ.formWords(editing);
        if (editing) {
          data.id = field('id').val();
          path = '/user/update';
        }
        XJ.post(path, data).done(function (answer) {
          if (XJ.ok(answer)) {
            $modal.modal('hide');
            XJ.toast(words.ok);
            opts.reload(!editing);
          } else {
            XJ.alert((answer && answer.msg) || words.fail);
          }
        }).fail(function (message) { XJ.alert(message); });
      }
    }));

    function openForm(row) {
      editing = !!row;
      XJ.resetForm($form, validator);
      $modal.find('.xj-mode-add').toggle(!editing);
      $modal.find('.xj-mode-edit').toggle(editing);
      var $pw = field('password');
      $pw.attr('placeholder', $pw.attr(editing ? 'data-edit-placeholder' : 'data-add-placeholder'));
      field('id').val(row ? row.id : '');
      field('username').val(row ? row.username : '').prop('readonly', editing);
      $form.find('[name=role][value=' + (row && row.role === 1 ? '1' : '0') + ']').prop('checked', true);
      var allowed = String((row && row.permission) || '').split(',');
      $form.find('[name=permission]').each(function () {
        $(this).prop('checked', allowed.indexOf(this.value) >= 0);
      });
      applyRole();
      XJ.showModal($modal);
    }

    return { open: openForm };
  };
})(window, window.jQuery, window.XJ);
