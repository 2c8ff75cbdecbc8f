/* Login page: POST {userName, password, ifRemember} to the form's data-endpoint (/login on the
   2.4.2 console, /auth/doLogin on the 3.4.2 one); on success go to the dashboard. */
(function ($, XJ) {
  'use strict';

  $(function () {
    var $form = $('#login-form');
    // With a directory behind the form, names and passwords may be longer
    // than the Java form's 20 characters.
    var max = $form.data('maxlength') || 20;
    $form.find('input[type=checkbox]').iCheck({
      checkboxClass: 'icheckbox_square-blue',
      radioClass: 'iradio_square-blue',
      increaseArea: '20%'
    });
    $form.validate($.extend({}, XJ.validatorDefaults, {
      rules: {
        userName: { required: true, minlength: max === 20 ? 4 : 1, maxlength: max },
        password: { required: true, minlength: max === 20 ? 4 : 1, maxlength: max }
      },
      messages: {
        userName: {
          required: XJ.t('login_username_empty'),
          minlength: XJ.t('login_username_lt_4')
        },
        password: {
          required: XJ.t('login_password_empty'),
          minlength: XJ.t('login_password_lt_4')
        }
      },
      errorPlacement: function (error, element) {
        element.parent('div').append(error);
      },
      submitHandler: function () {
        var data = {
          userName: $form.find('[name=userName]').val(),
          password: $form.find('[name=password]').val()
        };
        if ($form.find('[name=ifRemember]').prop('checked')) {
          data.ifRemember = 'on';
        }
        XJ.post($form.data('endpoint') || '/login', data).done(function (answer) {
          if (XJ.ok(answer)) {
            XJ.toast(XJ.t('login_success'));
            window.location.href = XJ.url('/');
          } else {
            XJ.alert((answer && answer.msg) || XJ.t('login_fail'));
          }
        }).fail(function (message) { XJ.alert(message); });
      }
    }));
  });
})(window.jQuery, window.XJ);
