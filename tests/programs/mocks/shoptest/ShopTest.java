package shoptest;

import static org.junit.Assert.assertEquals;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.spy;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import net.sf.cglib.proxy.Enhancer;
import net.sf.cglib.proxy.MethodInterceptor;
import org.junit.Test;
import shop.Cart;
import shop.PriceService;
import shop.TaxRate;

public class ShopTest {
  @Test public void plainCollaborator() {
    assertEquals(120, new PriceService(new TaxRate()).gross(100));
  }

  @Test public void mockedCollaborator() {
    TaxRate r = mock(TaxRate.class);
    when(r.percent("EU")).thenReturn(5);
    when(r.name()).thenReturn("mocked");
    PriceService s = new PriceService(r);
    assertEquals(105, s.gross(100));
    assertEquals(210, s.total(100, 100));
    assertEquals("mocked@EU", s.label());
    verify(r, times(3)).percent("EU");
  }

  @Test public void mockWithMatchers() {
    TaxRate r = mock(TaxRate.class);
    when(r.percent(anyString())).thenReturn(50);
    assertEquals(150, new PriceService(r, "US").gross(100));
  }

  @Test public void spyOverridesOneMethod() {
    Cart c = spy(new Cart());
    when(c.count()).thenReturn(42);
    c.add(1).add(2);
    assertEquals("42 items, 3", c.summary());
  }

  @Test public void spyOfProtectedSelfCall() {
    Cart c = spy(new Cart());
    when(c.count()).thenCallRealMethod();
    c.add(10).add(20);
    assertEquals(30, c.sum());
    verify(c, times(2)).add(anyInt());
  }

  @Test public void cglibProxy() {
    Enhancer e = new Enhancer();
    e.setSuperclass(Cart.class);
    e.setCallback((MethodInterceptor) (obj, m, args, p) ->
        m.getName().equals("price") ? (Integer) p.invokeSuper(obj, args) * 2
                                    : p.invokeSuper(obj, args));
    Cart c = (Cart) e.create();
    c.add(1).add(2);
    assertEquals("2 items, 6", c.summary());
  }

  @Test public void guiceChoosesTheInjectConstructor() {
    PriceService s = Guice.createInjector(new AbstractModule() {
      @Override protected void configure() {
        bind(TaxRate.class).toInstance(new TaxRate() {
          @Override public int percent(String region) { return 10; }
        });
      }
    }).getInstance(PriceService.class);
    assertEquals(110, s.gross(100));
    assertEquals("standard@EU", s.label());
  }

  @Test public void failsTheSameWay() {
    TaxRate r = mock(TaxRate.class);
    assertEquals("a failure the instrumented run must report too", 120,
                 new PriceService(r).gross(100));
  }
}
